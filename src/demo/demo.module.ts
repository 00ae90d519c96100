import { Module } from '@nestjs/common';
import { DemoDataSeeder } from './demo-data.seeder.js';

@Module({ providers: [DemoDataSeeder], exports: [DemoDataSeeder] })
export class DemoModule {}
