/** The machine-readable API description's version (CONTRACT.md section 9). */
export const API_VERSION = '0.16';
