import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/**
 * The api's OpenAPI document, built from the controllers' decorators. Served at
 * /openapi.json and written to apps/dashboard/src/api/openapi.json by
 * `npm run openapi:generate` (the dashboard's client is generated from it).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Deeplink API')
      .setDescription('Short links and deep links, click and in-app analytics, webhooks, QR codes and monthly reports.')
      .setVersion('1.0')
      .setLicense('Proprietary', 'https://example.com/terms')
      .addServer('/', 'This host (the api app)')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: '`dl_` API key or dashboard JWT' })
      .build(),
  );
}
