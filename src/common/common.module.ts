import { Global, Module } from '@nestjs/common';
import { LifecycleState } from './http/lifecycle-state.js';
import { IntakeActivity } from './intake-activity.js';

@Global()
@Module({ providers: [LifecycleState, IntakeActivity], exports: [LifecycleState, IntakeActivity] })
export class CommonModule {}
