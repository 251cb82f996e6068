import { Loader, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { CustomerFrame } from '../../ops-customers';
import { usePricebook } from '../api';
import { PricebookForm } from '../components/pricebook-form';

/** /ops/customers/{id}/pricebooks/{pbId}/edit: one of the customer's pages, in its frame. */
export default function OpsPricebookEdit() {
  const { id = '', pbId = '' } = useParams();
  const pb = usePricebook(id, pbId);
  return (
    <CustomerFrame>
      {() =>
        pb.isError ? (
          <Text c="red">The pricebook could not be loaded.</Text>
        ) : pb.data ? (
          <PricebookForm key={pb.data.id} customerId={id} existing={pb.data} />
        ) : (
          <Loader />
        )
      }
    </CustomerFrame>
  );
}
