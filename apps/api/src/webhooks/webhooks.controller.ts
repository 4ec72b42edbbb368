import { Body, Param, Query } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint, SuccessResponseDto } from '@dl/platform/http';
import {
  CreatedWebhookResponse,
  CreateWebhookDto,
  ListDeliveriesQuery,
  UpdateWebhookDto,
  WebhookDeliveryResponse,
  WebhookResponse,
  WebhooksService,
} from '@dl/webhooks';

@ApiController('api/webhooks', 'webhooks', Auth(Permissions.webhooksManage))
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Endpoint.post({ summary: 'Create a webhook; its signing secret is answered once', status: 201, response: CreatedWebhookResponse })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(principal, dto);
  }

  @Endpoint.get({ summary: "List the organization's webhooks", response: [WebhookResponse] })
  list(@CurrentPrincipal() principal: Principal): Promise<WebhookResponse[]> {
    return this.webhooks.list(principal);
  }

  @Endpoint.get(':id', { summary: 'Get a webhook', response: WebhookResponse })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookResponse> {
    return this.webhooks.get(principal, id);
  }

  @Endpoint.patch(':id', { summary: 'Update a webhook (URL, events, project, active)', response: WebhookResponse })
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() dto: UpdateWebhookDto): Promise<WebhookResponse> {
    return this.webhooks.update(principal, id, dto);
  }

  @Endpoint.delete(':id', { summary: 'Delete a webhook', response: SuccessResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SuccessResponseDto> {
    return this.webhooks.remove(principal, id);
  }

  @Endpoint.post(':id/test', { summary: 'Send a test event to a webhook', status: 202, response: WebhookDeliveryResponse })
  test(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookDeliveryResponse> {
    return this.webhooks.sendTest(principal, id);
  }

  @Endpoint.get(':id/deliveries', { summary: 'Recent deliveries of a webhook with their attempts', response: [WebhookDeliveryResponse] })
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: ListDeliveriesQuery,
  ): Promise<WebhookDeliveryResponse[]> {
    return this.webhooks.deliveries(principal, id, query);
  }
}
