// The case data feature's public face: its panel, loaded lazily by the case screens
// (`lazy(() => import('…/features/case-data'))`).
export { default } from './case-data-panel';
