import type { ScalarType } from '../model/types.js';
import type { DialectName } from './types.js';

/** SQL column type of a scalar attribute, per dialect. Datetimes are UTC; SQLite stores ISO 8601 text. */
export function columnType(dialect: DialectName, type: ScalarType): string {
  switch (type) {
    case 'string':
    case 'email':
    case 'uid':
    case 'enumeration':
    case 'password':
      return dialect === 'sqlite' ? 'TEXT' : 'VARCHAR(255)';
    case 'text':
    case 'richtext':
      return dialect === 'mysql' ? 'LONGTEXT' : 'TEXT';
    case 'blocks':
    case 'json':
      return dialect === 'postgres' ? 'JSONB' : dialect === 'mysql' ? 'JSON' : 'TEXT';
    case 'integer':
      return 'INTEGER';
    case 'biginteger':
      return 'BIGINT';
    case 'float':
      return dialect === 'postgres' ? 'DOUBLE PRECISION' : dialect === 'mysql' ? 'DOUBLE' : 'REAL';
    case 'decimal':
      return dialect === 'sqlite' ? 'REAL' : 'DECIMAL(10,2)';
    case 'boolean':
      return dialect === 'postgres' ? 'BOOLEAN' : dialect === 'mysql' ? 'TINYINT(1)' : 'INTEGER';
    case 'date':
      return dialect === 'sqlite' ? 'TEXT' : 'DATE';
    case 'time':
      return dialect === 'sqlite' ? 'TEXT' : 'TIME(3)';
    case 'datetime':
    case 'timestamp':
      return dialect === 'sqlite' ? 'TEXT' : dialect === 'postgres' ? 'TIMESTAMP(3)' : 'DATETIME(3)';
  }
}

export function idColumn(dialect: DialectName): string {
  if (dialect === 'sqlite') return 'INTEGER PRIMARY KEY AUTOINCREMENT';
  if (dialect === 'postgres') return 'SERIAL PRIMARY KEY';
  return 'INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY';
}

/** A column referring to another table's id (same integer type as `idColumn`). */
export function refColumn(dialect: DialectName): string {
  return dialect === 'mysql' ? 'INT UNSIGNED' : 'INTEGER';
}

export function doubleColumn(dialect: DialectName): string {
  return dialect === 'postgres' ? 'DOUBLE PRECISION' : dialect === 'mysql' ? 'DOUBLE' : 'REAL';
}
