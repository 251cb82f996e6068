// The flags feature's public face: the 'Raise a flag' button the case and subject screens show.
export { type FlagTarget, RaiseFlagButton } from './components/raise-flag';
