// The pricebooks feature's public face: a case's cost, shown when a case is added.
export { CaseCost } from './components/case-cost';
