import { useParams } from 'react-router';
import { PricebookForm } from '../components/pricebook-form';

/** /ops/customers/{id}/pricebooks/add */
export default function OpsPricebookAdd() {
  const { id = '' } = useParams();
  return <PricebookForm customerId={id} existing={null} />;
}
