import { Link } from 'react-router';
import { Empty } from '../components/ui';

export default function NotFoundPage() {
  return (
    <Empty title="Page not found">
      <p>
        <Link to="/links">Go to your links</Link>
      </p>
    </Empty>
  );
}
