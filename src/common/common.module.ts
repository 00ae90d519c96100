import { Global, Module } from '@nestjs/common';
import { LifecycleState } from './http/lifecycle-state.js';

@Global()
@Module({ providers: [LifecycleState], exports: [LifecycleState] })
export class CommonModule {}
