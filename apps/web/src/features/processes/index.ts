// What other features use of processes: the frame of a process's pages (cycles, portals).
export { ProcessFrame } from './components/process-frame';
