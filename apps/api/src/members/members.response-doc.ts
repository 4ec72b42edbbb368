import { ApiProperty } from '@nestjs/swagger';
import { Role } from '@dl/platform/db';

export class MemberResponseDoc {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class MemberListResponseDoc {
  @ApiProperty({ type: [MemberResponseDoc] }) members!: MemberResponseDoc[];
}
