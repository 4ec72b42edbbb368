import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';

export class SignupDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail({}, { message: 'Must be a valid email address' })
  @MaxLength(254, { message: 'Must be a valid email address' })
  @IsString({ message: 'Must be a valid email address' })
  email: string;

  @ApiProperty({ minLength: 10, maxLength: 200 })
  @MaxLength(200, { message: 'Must be at most 200 characters' })
  @MinLength(10, { message: 'Must be at least 10 characters' })
  @IsString({ message: 'Must be a string' })
  password: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  @MaxLength(100, { message: 'Must be 1-100 characters' })
  @Matches(/\S/, { message: 'Must be 1-100 characters' })
  @IsNotEmpty({ message: 'Must be 1-100 characters' })
  @IsString({ message: 'Must be a string' })
  name: string;

  @ApiProperty({ example: 'Analytical Engines' })
  @MaxLength(100, { message: 'Must be 1-100 characters' })
  @Matches(/\S/, { message: 'Must be 1-100 characters' })
  @IsNotEmpty({ message: 'Must be 1-100 characters' })
  @IsString({ message: 'Must be a string' })
  organizationName: string;
}

export class LoginDto {
  @ApiProperty()
  @IsEmail({}, { message: 'Must be a valid email address' })
  @IsString({ message: 'Must be a valid email address' })
  email: string;

  @ApiProperty()
  @MaxLength(200, { message: 'Must be at most 200 characters' })
  @IsNotEmpty({ message: 'Must not be empty' })
  @IsString({ message: 'Must be a string' })
  password: string;

  @ApiPropertyOptional({ description: 'Organization to sign in to (default: the first one joined)' })
  @IsOptional()
  @IsUUID('all', { message: 'Must be a valid UUID' })
  organizationId?: string;
}

export class AcceptInviteDto {
  @ApiProperty({ example: 'dli_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'The token from the invitation email' })
  @MaxLength(200, { message: 'Must be a string' })
  @IsString({ message: 'Must be a string' })
  token: string;

  @ApiPropertyOptional({ example: 'Ada Lovelace', description: 'Required when the email has no account; ignored otherwise' })
  @IsOptional()
  @MaxLength(100, { message: 'Must be 1-100 characters' })
  @Matches(/\S/, { message: 'Must be 1-100 characters' })
  @IsNotEmpty({ message: 'Must be 1-100 characters' })
  @IsString({ message: 'Must be a string' })
  name?: string;

  @ApiPropertyOptional({
    minLength: 10,
    maxLength: 200,
    description: "The new account's password, or the new password of an unverified account the invitation claims; not used for a verified account (sign in instead)",
  })
  @IsOptional()
  @MaxLength(200, { message: 'Must be at most 200 characters' })
  @MinLength(10, { message: 'Must be at least 10 characters' })
  @IsString({ message: 'Must be a string' })
  password?: string;
}

export class VerifyEmailDto {
  @ApiProperty({ example: 'dlv_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'The token from the verification email' })
  @MaxLength(200, { message: 'Must be a string' })
  @IsString({ message: 'Must be a string' })
  token: string;
}

export class ForgotPasswordDto {
  @ApiProperty({ example: 'ada@example.com' })
  @MaxLength(254, { message: 'Must be a valid email address' })
  @IsEmail({}, { message: 'Must be a valid email address' })
  @IsString({ message: 'Must be a valid email address' })
  email: string;
}

export class ResetPasswordDto {
  @ApiProperty({ example: 'dlr_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'The token from the reset email' })
  @MaxLength(200, { message: 'Must be a string' })
  @IsString({ message: 'Must be a string' })
  token: string;

  @ApiProperty({ minLength: 10, maxLength: 200 })
  @MaxLength(200, { message: 'Must be at most 200 characters' })
  @MinLength(10, { message: 'Must be at least 10 characters' })
  @IsString({ message: 'Must be a string' })
  password: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @MaxLength(200, { message: 'Must be at most 200 characters' })
  @IsNotEmpty({ message: 'Must not be empty' })
  @IsString({ message: 'Must be a string' })
  currentPassword: string;

  @ApiProperty({ minLength: 10, maxLength: 200 })
  @MaxLength(200, { message: 'Must be at most 200 characters' })
  @MinLength(10, { message: 'Must be at least 10 characters' })
  @IsString({ message: 'Must be a string' })
  newPassword: string;
}

export class UpdateMeDto {
  @ApiProperty({ example: 'Ada Lovelace' })
  @MaxLength(100, { message: 'Must be 1-100 characters' })
  @Matches(/\S/, { message: 'Must be 1-100 characters' })
  @IsNotEmpty({ message: 'Must be 1-100 characters' })
  @IsString({ message: 'Must be a string' })
  name: string;
}
