import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** POST /auth/2fa/setup (decisions §20): the secret to confirm with /auth/2fa/enable. */
export class TwoFactorSetupResponseDto {
  @ApiProperty({ description: 'Base32 TOTP secret, for typing into an authenticator app' }) secret!: string;
  @ApiProperty({ example: 'otpauth://totp/Deeplink:ada%40example.com?issuer=Deeplink&secret=…&algorithm=SHA1&digits=6&period=30' })
  otpauthUrl!: string;
  @ApiProperty({ description: 'The otpauth URL as a QR code, an SVG document' }) qrSvg!: string;
}

/** POST /auth/2fa/enable: the ten recovery codes, shown this once (only their hashes are kept). */
export class RecoveryCodesResponseDto {
  @ApiProperty({ type: [String], example: ['3f9a1-c07be'] }) recoveryCodes!: string[];
}

/**
 * POST /auth/login: a session, or (2FA on) `twoFactorRequired` with the challenge to answer
 * at POST /auth/login/2fa.
 */
export class LoginResponseDto {
  @ApiPropertyOptional() accessToken?: string;
  @ApiPropertyOptional({ description: 'Seconds' }) expiresIn?: number;
  @ApiPropertyOptional({ enum: [true], description: 'Present (true) when a second step is needed' }) twoFactorRequired?: true;
  @ApiPropertyOptional({ description: '`dlc_` + 48 hex: 5 minutes, single use' }) challengeToken?: string;
}
