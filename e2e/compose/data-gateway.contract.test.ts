/** The data gateway's contract against the data-service image, in plaintext. */
import { describeGatewayContract } from './data-gateway-contract.js';

describeGatewayContract('plaintext');
