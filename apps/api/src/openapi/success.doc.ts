import { ApiProperty } from '@nestjs/swagger';

/** `{success: true}` (deletes). */
export class SuccessResponseDoc {
  @ApiProperty({ enum: [true] }) success!: true;
}
