import { Loader, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { usePricebook } from '../api';
import { PricebookForm } from '../components/pricebook-form';

/** /ops/customers/{id}/pricebooks/{pbId}/edit */
export default function OpsPricebookEdit() {
  const { id = '', pbId = '' } = useParams();
  const pb = usePricebook(id, pbId);
  if (pb.isError) return <Text c="red">The pricebook could not be loaded.</Text>;
  if (!pb.data) return <Loader />;
  return <PricebookForm key={pb.data.id} customerId={id} existing={pb.data} />;
}
