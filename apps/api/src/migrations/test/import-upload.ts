import request from 'supertest';

/** POST /migrations/import as multipart: the form fields, then the CSV as the `file` part. */
export function importUpload(apiUrl: string, key: string, csv: string | Buffer, fields: Record<string, string>, filename = 'links.csv'): request.Test {
  let req = request(apiUrl).post('/migrations/import').set('Authorization', `Bearer ${key}`);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req.attach('file', Buffer.isBuffer(csv) ? csv : Buffer.from(csv), { filename, contentType: 'text/csv' });
}
