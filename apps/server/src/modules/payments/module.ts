import type { KestrelModule } from '../../platform/module.js';
import { PAYMENTS_SIMULATOR_SECRET } from './config.js';
import { seedPaymentsDemo } from './demo.seed.js';
import { PRODUCT_PAYMENT_CONTENT_TYPE, REFUND_CONTENT_TYPE } from './ops-payments.js';
import { PAYMENT_METHOD_CT, PAYMENT_SETTINGS_CT } from './payment-methods.js';
import { paymentMethodsRoutes } from './payment-methods.routes.js';
import { paymentsRoutes } from './payments.routes.js';
import { INTENT_CONTENT_TYPE, PAYMENT_CONTENT_TYPE } from './service.js';

export default {
  name: 'payments',
  routes: async (app) => {
    await paymentsRoutes(app);
    // saved cards, payment settings and a case's payment retry (issue 30)
    await paymentMethodsRoutes(app);
  },
  secrets: [PAYMENTS_SIMULATOR_SECRET],
  // after the cases' and checks' demo (their activities are paid for)
  seedDemo: seedPaymentsDemo,
  seedOrder: 300,
  contentTypes: [
    INTENT_CONTENT_TYPE,
    PAYMENT_CONTENT_TYPE,
    REFUND_CONTENT_TYPE,
    PRODUCT_PAYMENT_CONTENT_TYPE,
    PAYMENT_METHOD_CT,
    PAYMENT_SETTINGS_CT,
  ],
} satisfies KestrelModule;
