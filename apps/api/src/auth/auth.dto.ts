import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';

const EMAIL_MESSAGE = 'Must be a valid email address';

// Stacked decorators apply bottom-up: each list below is in that order (the string rule first).
/** A password being set: 10-200 characters. */
const NewPassword = () =>
  applyDecorators(IsString({ message: 'Must be a string' }), MinLength(10, { message: 'Must be at least 10 characters' }), MaxLength(200, { message: 'Must be at most 200 characters' }));
/** A password being checked: not empty, at most 200 characters. */
const GivenPassword = () =>
  applyDecorators(IsString({ message: 'Must be a string' }), IsNotEmpty({ message: 'Must not be empty' }), MaxLength(200, { message: 'Must be at most 200 characters' }));
/** A person's or an organization's name: 1-100 characters, not only spaces. */
const DisplayName = () =>
  applyDecorators(
    IsString({ message: 'Must be a string' }),
    IsNotEmpty({ message: 'Must be 1-100 characters' }),
    Matches(/\S/, { message: 'Must be 1-100 characters' }),
    MaxLength(100, { message: 'Must be 1-100 characters' }),
  );
/** An email address an account is known by: at most 254 characters (every rule answers the same message). */
export const EmailAddress = () =>
  applyDecorators(IsString({ message: EMAIL_MESSAGE }), MaxLength(254, { message: EMAIL_MESSAGE }), IsEmail({}, { message: EMAIL_MESSAGE }));
/** A token from an email (`dli_`, `dlv_`, `dlr_`): its format is checked where it is looked up. */
const EmailToken = () => applyDecorators(IsString({ message: 'Must be a string' }), MaxLength(200, { message: 'Must be a string' }));

export class SignupDto {
  @ApiProperty({ example: 'ada@example.com' })
  @EmailAddress()
  email: string;

  @ApiProperty({ minLength: 10, maxLength: 200 })
  @NewPassword()
  password: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  @DisplayName()
  name: string;

  @ApiProperty({ example: 'Analytical Engines' })
  @DisplayName()
  organizationName: string;
}

export class LoginDto {
  @ApiProperty()
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @IsString({ message: EMAIL_MESSAGE })
  email: string;

  @ApiProperty()
  @GivenPassword()
  password: string;

  @ApiPropertyOptional({ description: 'Organization to sign in to (default: the first one joined)' })
  @IsOptional()
  @IsUUID('all', { message: 'Must be a valid UUID' })
  organizationId?: string;
}

export class AcceptInviteDto {
  @ApiProperty({ example: 'dli_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'The token from the invitation email' })
  @EmailToken()
  token: string;

  @ApiPropertyOptional({ example: 'Ada Lovelace', description: 'Required when the email has no account; ignored otherwise' })
  @IsOptional()
  @DisplayName()
  name?: string;

  @ApiPropertyOptional({
    minLength: 10,
    maxLength: 200,
    description: "The new account's password, or the new password of an unverified account the invitation claims; not used for a verified account (sign in instead)",
  })
  @IsOptional()
  @NewPassword()
  password?: string;
}

export class VerifyEmailDto {
  @ApiProperty({ example: 'dlv_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'The token from the verification email' })
  @EmailToken()
  token: string;
}

export class ForgotPasswordDto {
  @ApiProperty({ example: 'ada@example.com' })
  @EmailAddress()
  email: string;
}

export class ResetPasswordDto {
  @ApiProperty({ example: 'dlr_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'The token from the reset email' })
  @EmailToken()
  token: string;

  @ApiProperty({ minLength: 10, maxLength: 200 })
  @NewPassword()
  password: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @GivenPassword()
  currentPassword: string;

  @ApiProperty({ minLength: 10, maxLength: 200 })
  @NewPassword()
  newPassword: string;
}

export class UpdateMeDto {
  @ApiProperty({ example: 'Ada Lovelace' })
  @DisplayName()
  name: string;
}
