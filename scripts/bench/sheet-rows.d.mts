export function sheetRows(file: string): Promise<{ rows: number; last: string }>;
