import { makeCalculate } from '../common/calculate';
import { makeGetUserDetails } from '../common/get-user-details';
import type { ToolDef } from '../tool';
import { makeThink } from '../common/think';
import { makeTransferToHumanAgents } from '../common/transfer-to-human-agents';
import { bookReservation } from './book-reservation';
import { cancelReservation } from './cancel-reservation';
import { getReservationDetails } from './get-reservation-details';
import { listAllAirports } from './list-all-airports';
import { searchDirectFlight } from './search-direct-flight';
import { searchOnestopFlight } from './search-onestop-flight';
import { sendCertificate } from './send-certificate';
import { updateReservationBaggages } from './update-reservation-baggages';
import { updateReservationFlights } from './update-reservation-flights';
import { updateReservationPassengers } from './update-reservation-passengers';

/** τ-bench's airline `ALL_TOOLS`, in its order. */
export const AIRLINE_TOOLS: readonly ToolDef[] = [
  bookReservation,
  makeCalculate('airline'),
  cancelReservation,
  getReservationDetails,
  makeGetUserDetails('airline'),
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
  sendCertificate,
  makeThink('airline'),
  makeTransferToHumanAgents('airline'),
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
];
