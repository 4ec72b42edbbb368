import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import {
  CreatedWebhookResponse,
  CreateWebhookDto,
  ListDeliveriesQuery,
  UpdateWebhookDto,
  WebhookDeliveryResponse,
  WebhookResponse,
  WebhooksService,
} from '@dl/webhooks';

@ApiTags('webhooks')
@ApiBearerAuth()
@Auth(Permissions.webhooksManage)
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({ summary: 'Create a webhook; its signing secret is answered once' })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(principal, dto);
  }

  @Get()
  @ApiOperation({ summary: 'List the organization\'s webhooks' })
  @ApiOkResponse({ type: [WebhookResponse] })
  list(@CurrentPrincipal() principal: Principal): Promise<WebhookResponse[]> {
    return this.webhooks.list(principal);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook' })
  @ApiOkResponse({ type: WebhookResponse })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookResponse> {
    return this.webhooks.get(principal, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a webhook (URL, events, project, active)' })
  @ApiOkResponse({ type: WebhookResponse })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookResponse> {
    return this.webhooks.update(principal, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a webhook' })
  @ApiOkResponse({ schema: { type: 'object', properties: { success: { type: 'boolean', example: true } } } })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<{ success: true }> {
    return this.webhooks.remove(principal, id);
  }

  @Post(':id/test')
  @ApiOperation({ summary: 'Send a test event to a webhook' })
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  test(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookDeliveryResponse> {
    return this.webhooks.sendTest(principal, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'Recent deliveries of a webhook with their attempts' })
  @ApiOkResponse({ type: [WebhookDeliveryResponse] })
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: ListDeliveriesQuery,
  ): Promise<WebhookDeliveryResponse[]> {
    return this.webhooks.deliveries(principal, id, query);
  }
}
