import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { stacked } from '@dl/platform/validation';

/**
 * The checks an environment variable of EnvironmentVariables takes, each a stack of
 * class-transformer and class-validator decorators composed once: `''` counts as unset.
 */

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : value === true || value === 'true' || value === '1';
export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** A whole number of at least `min` (and at most `max`). */
export const EnvInt = (min: number, max?: number): PropertyDecorator =>
  stacked(Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));

/** `true`, `1` or `false` (anything else). */
export const EnvBool = (): PropertyDecorator => stacked(Transform(toBool), IsBoolean());

/** An http(s) URL; `localhost` and other names without a top-level domain are fine. */
export const EnvUrl = (): PropertyDecorator =>
  IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true });

export const PostgresUrl = (): PropertyDecorator =>
  Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgresql:// connection URL' });

/** A variable that may be unset (or empty); when set, it passes `checks`. */
export const OptionalEnv = (...checks: PropertyDecorator[]): PropertyDecorator =>
  stacked(Transform(emptyToUndefined), IsOptional(), ...checks);

export const OptionalEnvString = (): PropertyDecorator => OptionalEnv(IsString());

const IPV4 = String.raw`(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
const PORT = String.raw`(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))`;
const DNS_SERVER = String.raw`(?:${IPV4}${PORT}?|\[[0-9A-Fa-f:.]{2,45}\]${PORT}?)`;
/** `host:port` (a DNS name, an IPv4 address or a bracketed IPv6 one), comma-separated. */
const HOST_PORT = String.raw`(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])${PORT}`;
export const HOST_PORTS_PATTERN = new RegExp(String.raw`^\s*${HOST_PORT}(?:\s*,\s*${HOST_PORT})*\s*$`);
export const DNS_SERVERS_PATTERN = new RegExp(String.raw`^\s*${DNS_SERVER}(?:\s*,\s*${DNS_SERVER})*\s*$`);
