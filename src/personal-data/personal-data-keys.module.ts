import { Module } from '@nestjs/common';
import { PersonalDataKeys } from './personal-data-keys.js';

/** The personal-data lookup keys, for every module that stores an order (they are written with it). */
@Module({ providers: [PersonalDataKeys], exports: [PersonalDataKeys] })
export class PersonalDataKeysModule {}
