import { describe, expect, it } from 'vitest';
import { maskBirth, maskDocument, maskEmail, maskPersonalData, maskPhone, maskStudentKey, maskText } from '../../../src/commands/mcp/mask.js';

describe('maskEmail', () => {
  it('keeps the first character and the domain', () => {
    expect(maskEmail('maria.silva@gmail.com')).toBe('m***@gmail.com');
    expect(maskEmail('a@b.co')).toBe('a***@b.co');
  });

  it('masks the last @ of an address that has two, and anything without a local part whole', () => {
    expect(maskEmail('"odd@name"@example.com')).toBe('"***@example.com');
    expect(maskEmail('@example.com')).toBe('***');
    expect(maskEmail('no-at-sign')).toBe('***');
  });
});

describe('maskDocument', () => {
  it('keeps the middle six digits of a CPF, punctuated or bare', () => {
    expect(maskDocument('123.456.789-09')).toBe('***.456.789-**');
    expect(maskDocument('12345678909')).toBe('***.456.789-**');
  });

  it('keeps the last two characters of another document, and nothing of a short one', () => {
    expect(maskDocument('MG-12.345.678')).toBe('***78');
    expect(maskDocument('12.345.678/0001-90')).toBe('***90');
    expect(maskDocument('AB12')).toBe('***');
    expect(maskDocument('  AB123  ')).toBe('***23');
  });
});

describe('maskPhone and maskBirth', () => {
  it('keep the last four digits of a phone', () => {
    expect(maskPhone('+55 (61) 95591-2284')).toBe('***2284');
    expect(maskPhone('2284')).toBe('***');
    expect(maskPhone('12345')).toBe('***2345');
  });

  it('keep the year of a birth date', () => {
    expect(maskBirth('1990-04-12')).toBe('1990-**-**');
    expect(maskBirth(' 1990-04-12T00:00:00Z')).toBe('1990-**-**');
    expect(maskBirth('12/04/1990')).toBe('***');
  });
});

describe('maskStudentKey', () => {
  it('masks a key by what it looks like', () => {
    expect(maskStudentKey('maria@gmail.com')).toBe('m***@gmail.com');
    expect(maskStudentKey('doc:123.456.789-09')).toBe('doc:***.456.789-**');
    expect(maskStudentKey('070.692.055-46')).toBe('***.692.055-**');
    expect(maskStudentKey('07069205546')).toBe('***.692.055-**');
  });

  it('leaves ids and references as they are: they name no one outside the platform', () => {
    expect(maskStudentKey('9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f')).toBe('9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f');
    expect(maskStudentKey('ref:CRM-0004411')).toBe('ref:CRM-0004411');
    expect(maskStudentKey('1234567890')).toBe('1234567890');
  });
});

describe('maskPersonalData', () => {
  const student = {
    id: 's1', first_name: 'Maria', email: 'maria@gmail.com', document: '123.456.789-09', phone: '(61) 95591-2284', birth: '1990-04-12',
    subscriptions: [{ id: 1, student: { id: 's1', email: 'maria@gmail.com' } }],
  };

  it('masks the personal fields wherever they sit, and leaves the rest and the input as they were', () => {
    const masked = maskPersonalData(student);
    expect(masked).toEqual({
      id: 's1', first_name: 'Maria', email: 'm***@gmail.com', document: '***.456.789-**', phone: '***2284', birth: '1990-**-**',
      subscriptions: [{ id: 1, student: { id: 's1', email: 'm***@gmail.com' } }],
    });
    expect(student.email).toBe('maria@gmail.com');
  });

  it('masks a record\'s student key as typed, keeps empty and null fields, and other values', () => {
    expect(maskPersonalData({ student: 'maria@gmail.com', email: '', phone: null, score: 3, ok: true, birth_date: '2001-02-03', cpf: '12345678909' }))
      .toEqual({ student: 'm***@gmail.com', email: '', phone: null, score: 3, ok: true, birth_date: '2001-**-**', cpf: '***.456.789-**' });
    expect(maskPersonalData(['maria@gmail.com', 'no one'])).toEqual(['m***@gmail.com', 'no one']);
    expect(maskPersonalData({ from: '12345678909', to: 'joao@uol.com.br', birthdate: '1980-01-01' })).toEqual({ from: '***.456.789-**', to: 'j***@uol.com.br', birthdate: '1980-**-**' });
  });
});

describe('maskPersonalData in text fields', () => {
  it('masks the e-mails and CPFs a reason or a description holds, and never an identifier', () => {
    expect(maskPersonalData({ reason: 'maria@gmail.com asked, CPF 123.456.789-09', id: '12345678909', student_id: 'maria@gmail.com', title: 'Python Pro' }))
      .toEqual({ reason: 'm***@gmail.com asked, CPF ***.456.789-**', id: '12345678909', student_id: 'maria@gmail.com', title: 'Python Pro' });
  });
});

describe('maskText', () => {
  it('masks the e-mails and CPFs in a sentence', () => {
    expect(maskText('student with e-mail maria@gmail.com not found; did you mean maria@gmial.com?'))
      .toBe('student with e-mail m***@gmail.com not found; did you mean m***@gmial.com?');
    expect(maskText('document 123.456.789-09 (or 12345678909) not found')).toBe('document ***.456.789-** (or ***.456.789-**) not found');
    expect(maskText('Maria Silva <maria@gmail.com>')).toBe('Maria Silva <m***@gmail.com>');
  });

  it('leaves ids, dates and other numbers alone', () => {
    const text = 'granted product 5f1c7a2e (id 42) on 2026-11-28, phone ends 2284, order 1234567890';
    expect(maskText(text)).toBe(text);
  });
});
