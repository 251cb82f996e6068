// The ops customers feature's public face: the frame of every customer page (its name, the ops
// session button and the customer's tabs), for the customer pages other features draw.
export { CustomerFrame } from './components/customer-frame';
