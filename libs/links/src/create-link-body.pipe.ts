import { Injectable } from '@nestjs/common';
import { CompiledBodyPipe } from '@dl/platform/http';
import { CreateLinkDto } from './link.dto';

/**
 * `POST /api/links` body: CreateLinkDto's rules compiled once from its metadata
 * (`CompiledBodyPipe`), so the route gets the global ValidationPipe's DTO and `validation`
 * messages without class-transformer's and class-validator's per-call cost. The parameter is
 * typed so that the global pipe leaves it to this one.
 */
@Injectable()
export class CreateLinkBodyPipe extends CompiledBodyPipe<CreateLinkDto> {
  constructor() {
    super(CreateLinkDto);
  }
}
