import SubjectDetail from './subject-detail';

/** /subjects/:id/subscriptions: the subject page on its subscriptions tab. */
export default function SubjectSubscriptions() {
  return <SubjectDetail tab="subscriptions" />;
}
