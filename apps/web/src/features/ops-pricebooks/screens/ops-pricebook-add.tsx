import { useParams } from 'react-router';
import { CustomerFrame } from '../../ops-customers';
import { PricebookForm } from '../components/pricebook-form';

/** /ops/customers/{id}/pricebooks/add: one of the customer's pages, in its frame. */
export default function OpsPricebookAdd() {
  const { id = '' } = useParams();
  return <CustomerFrame>{() => <PricebookForm customerId={id} existing={null} />}</CustomerFrame>;
}
