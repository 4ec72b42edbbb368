import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'CI pipeline', maxLength: 100 })
  @MaxLength(100, { message: 'Must be 1-100 characters' })
  @Matches(/\S/, { message: 'Must be 1-100 characters' })
  @IsNotEmpty({ message: 'Must be 1-100 characters' })
  @IsString({ message: 'Must be a string' })
  name: string;
}

export class RenameApiKeyDto extends CreateApiKeyDto {}
