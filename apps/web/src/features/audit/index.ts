// The audit feature's public face: the case page's 'Who saw what' section (issue 34).
export { CaseViews } from './components/case-views';
