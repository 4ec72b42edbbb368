import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ROLES } from '@dl/auth';
import { Role } from '@dl/platform/db';

const ROLE_MESSAGE = `Must be one of ${ROLES.join(', ')}`;

export class AddMemberDto {
  @ApiProperty()
  @MaxLength(254, { message: 'Must be a valid email address' })
  @IsEmail({}, { message: 'Must be a valid email address' })
  @IsString({ message: 'Must be a valid email address' })
  email: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES, { message: ROLE_MESSAGE })
  role: Role;

  @ApiPropertyOptional({ description: 'Required when the email has no account yet' })
  @IsOptional()
  @MaxLength(100, { message: 'Must be 1-100 characters' })
  @Matches(/\S/, { message: 'Must be 1-100 characters' })
  @IsNotEmpty({ message: 'Must be 1-100 characters' })
  @IsString({ message: 'Must be a string' })
  name?: string;

  @ApiPropertyOptional({ description: 'Initial password, required when the email has no account yet', minLength: 10 })
  @IsOptional()
  @MaxLength(200, { message: 'Must be at most 200 characters' })
  @MinLength(10, { message: 'Must be at least 10 characters' })
  @IsString({ message: 'Must be a string' })
  password?: string;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES, { message: ROLE_MESSAGE })
  role: Role;
}
