export { SubjectDataPanel } from './subject-data-panel';
export { YourDataSection } from './your-data';
