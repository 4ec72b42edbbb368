import { CopyButton } from './ui';

/** A DNS TXT record to add (branded domains, SSO email domains): type, then name and value each with a copy button. */
export function TxtRecord({ verification, testId }: { verification: { type: string; name: string; value: string }; testId: string }) {
  return (
    <dl>
      <dt>Type</dt>
      <dd>
        <code>{verification.type}</code>
      </dd>
      <dt>Name</dt>
      <dd className="copy-row">
        <code data-testid={`${testId}-name`}>{verification.name}</code>
        <CopyButton value={verification.name} label="Copy name" />
      </dd>
      <dt>Value</dt>
      <dd className="copy-row">
        <code data-testid={`${testId}-value`}>{verification.value}</code>
        <CopyButton value={verification.value} label="Copy value" />
      </dd>
    </dl>
  );
}
