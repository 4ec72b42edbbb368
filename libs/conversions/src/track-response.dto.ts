import { ApiProperty } from '@nestjs/swagger';

/*
 * The tracking API's answers (decisions §23): each class is both the type the mapper
 * (track.mapper.ts) builds and the OpenAPI schema; the mapper checks they agree.
 */

export class TrackedCustomerDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() externalId!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null when the click was outside its link’s attribution window' })
  linkId!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) clickId!: string | null;
}

export class TrackedLeadDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() eventName!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** POST /api/track/lead (201 new, 200 the existing lead of this customer and event name). */
export class TrackLeadResponseDto {
  @ApiProperty({ type: TrackedCustomerDto }) customer!: TrackedCustomerDto;
  @ApiProperty({ type: TrackedLeadDto }) lead!: TrackedLeadDto;
}

export class TrackedSaleDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer', description: "Minor units of the currency" }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) linkId!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) customerId!: string | null;
  @ApiProperty({ type: String, nullable: true }) invoiceId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** POST /api/track/sale (201 new, 200 the existing sale of this invoice id). */
export class TrackSaleResponseDto {
  @ApiProperty({ type: TrackedSaleDto }) sale!: TrackedSaleDto;
}

export class TrackedRefundDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) saleId!: string;
  @ApiProperty() invoiceId!: string;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty() currency!: string;
  @ApiProperty({ type: 'integer', description: 'All refunds of the sale so far' }) saleRefunded!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** POST /api/track/refund */
export class TrackRefundResponseDto {
  @ApiProperty({ type: TrackedRefundDto }) refund!: TrackedRefundDto;
}
