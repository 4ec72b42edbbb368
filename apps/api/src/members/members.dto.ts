import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateBy, ValidateIf } from 'class-validator';
import { ROLES } from '@dl/auth';
import { Role } from '@dl/platform/db';
import { EmailAddress } from '../auth/auth.dto';

const ROLE_MESSAGE = `Must be one of ${ROLES.join(', ')}`;

/** Refuses the field whenever it is sent, with a message saying why (instead of "Unknown field"). */
function Refused(message: string): PropertyDecorator {
  return (target, key) => {
    ValidateIf((o: object) => Object.prototype.hasOwnProperty.call(o, key))(target, key);
    ValidateBy({ name: 'refused', validator: { validate: () => false } }, { message })(target, key);
  };
}

export class AddMemberDto {
  @ApiProperty({ description: 'An existing account joins at once; any other email is invited' })
  @EmailAddress()
  email: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES, { message: ROLE_MESSAGE })
  role: Role;

  /** Gone in the second release (decisions §14): invited people choose their own password. */
  @ApiPropertyOptional({ type: String, deprecated: true, description: 'Not accepted: invited people choose their own password (400 if sent)' })
  @Refused('Not accepted: members are invited and choose their own password')
  password?: unknown;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES, { message: ROLE_MESSAGE })
  role: Role;
}
