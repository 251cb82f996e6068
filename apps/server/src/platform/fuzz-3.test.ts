// @postgres: node-postgres inlines parameters as literals: every operation's hostile values
import { defineFuzz } from '../../test/fuzz.js';

defineFuzz(3);
