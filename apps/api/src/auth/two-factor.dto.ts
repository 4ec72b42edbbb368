import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** A TOTP code from the authenticator app. */
export class TwoFactorCodeDto {
  @ApiProperty({ example: '123456', description: '6 digits' })
  @MaxLength(20, { message: 'Must be a string of at most 20 characters' })
  @IsString({ message: 'Must be a string' })
  code: string;
}

/** A TOTP code or one of the recovery codes (exactly one of them). */
export class SecondFactorDto {
  @ApiPropertyOptional({ example: '123456', description: '6 digits from the authenticator app' })
  @IsOptional()
  @MaxLength(20, { message: 'Must be a string of at most 20 characters' })
  @IsString({ message: 'Must be a string' })
  code?: string;

  @ApiPropertyOptional({ example: '3f9a1-c07be', description: 'One of the recovery codes (each works once)' })
  @IsOptional()
  @MaxLength(40, { message: 'Must be a string of at most 40 characters' })
  @IsString({ message: 'Must be a string' })
  recoveryCode?: string;
}

export class LoginTwoFactorDto extends SecondFactorDto {
  @ApiProperty({ example: 'dlc_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'From POST /auth/login' })
  @MaxLength(200, { message: 'Must be a string' })
  @IsString({ message: 'Must be a string' })
  challengeToken: string;
}
