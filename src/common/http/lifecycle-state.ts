import { Injectable } from '@nestjs/common';

/** Set when the instance starts shutting down: readiness goes red and new requests get 503. */
@Injectable()
export class LifecycleState {
  draining = false;
}
