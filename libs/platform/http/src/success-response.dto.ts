import { ApiProperty } from '@nestjs/swagger';

/** `{success: true}`: the answer of a delete. */
export class SuccessResponseDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
}
