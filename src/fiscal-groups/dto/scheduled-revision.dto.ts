import { ApiProperty } from '@nestjs/swagger';

/** Who wrote a revision: a machine client or a person, as the audit log names them. */
export class RevisionActorDto {
  type: 'client' | 'user';

  @ApiProperty({ example: 'fiscal-console' })
  id: string;

  @ApiProperty({ example: 'Ana Souza' })
  name: string;
}

/** A revision of the group written for a later instant. */
export class ScheduledRevisionDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 4 })
  revision: number;

  /** When it takes effect */
  @ApiProperty({ format: 'date-time', example: '2027-01-01T00:00:00.000Z' })
  effectiveFrom: string;

  /** Null for a write that names no actor (demo seeding, SQL by hand) */
  actor: RevisionActorDto | null;
}
