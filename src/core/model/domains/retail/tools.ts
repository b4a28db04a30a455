import { makeCalculate } from '../common/calculate';
import { makeGetUserDetails } from '../common/get-user-details';
import type { ToolDef } from '../tool';
import { makeThink } from '../common/think';
import { makeTransferToHumanAgents } from '../common/transfer-to-human-agents';
import { cancelPendingOrder } from './cancel-pending-order';
import { exchangeDeliveredOrderItems } from './exchange-delivered-order-items';
import { findUserIdByEmail } from './find-user-id-by-email';
import { findUserIdByNameZip } from './find-user-id-by-name-zip';
import { getOrderDetails } from './get-order-details';
import { getProductDetails } from './get-product-details';
import { listAllProductTypes } from './list-all-product-types';
import { modifyPendingOrderAddress } from './modify-pending-order-address';
import { modifyPendingOrderItems } from './modify-pending-order-items';
import { modifyPendingOrderPayment } from './modify-pending-order-payment';
import { modifyUserAddress } from './modify-user-address';
import { returnDeliveredOrderItems } from './return-delivered-order-items';

/** τ-bench's retail `ALL_TOOLS`, in its order. */
export const RETAIL_TOOLS: readonly ToolDef[] = [
  makeCalculate('retail'),
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  findUserIdByEmail,
  findUserIdByNameZip,
  getOrderDetails,
  getProductDetails,
  makeGetUserDetails('retail'),
  listAllProductTypes,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
  makeThink('retail'),
  makeTransferToHumanAgents('retail'),
];
