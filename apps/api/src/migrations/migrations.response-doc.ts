import { ApiProperty } from '@nestjs/swagger';

export class ImportRowErrorDoc {
  @ApiProperty({ description: 'CSV row number' }) row!: number;
  @ApiProperty() message!: string;
}

/** POST /migrations/import. */
export class ImportResultDoc {
  @ApiProperty() imported!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty() failed!: number;
  @ApiProperty({ type: [ImportRowErrorDoc] }) errors!: ImportRowErrorDoc[];
}
