// normalizeNames
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/name-normalizer): every
// documented pair, the tenant observation of vscode-sailpoint-identitynow #73, and the edges of the
// one algorithm.
import { describe, expect, it } from 'vitest';
import { capitalizeFully, normalizeNames } from '../../src/runtime/names.js';

describe('normalizeNames', () => {
  it.each([
    // name-normalizer#2, #3 (operation docs)
    ['jOHN VON SmITh', 'John von Smith'],
    ["Dr. JOHN D. O'BRIEN", "Dr. John D. O'Brien"],
    // tenant observation (vscode #73) and the VS Code unit-test pairs
    ['mac-donalds', 'Mac-donalds'],
    ['mc-donalds', 'Mc-donalds'],
    ['macdonalds', 'MacDonalds'],
    ['mcdonalds', 'McDonalds'],
    ['mac donalds', 'Mac Donalds'],
    ['jean-baptiste le goff', 'Jean-Baptiste Le Goff'],
    ["o'sullivan", "O'Sullivan"],
    // the Name Normalizer rule sample (transform_rule.md)
    ['JOHN DOE', 'John Doe'],
    ['tony smith', 'Tony Smith'],
    ['CORNELIUS AUGUSTINE MCGLENNON IV', 'Cornelius Augustine McGlennon IV'],
    ['NEIL MC GLENNON', 'Neil McGlennon'],
    ["mArTiN o'mAlLeY", "Martin O'Malley"],
    ['john wilkes-booth', 'John Wilkes-Booth'],
    ['JOAN OF ARC', 'Joan of Arc'],
    ['MACKENNA', 'MacKenna'],
    ['OSCAR DE LA HOYA', 'Oscar de la Hoya'],
    ['CAPTAIN VON TRAPP', 'Captain von Trapp'],
    ['Dell dEl Roach', 'Dell del Roach'],
    ['Augustiner Anstruther-Gough-Calthorpe', 'Augustiner Anstruther-Gough-Calthorpe'],
    ['GEORGE HENRY LANE-FOX PITT-RIVERS ESQ.', 'George Henry Lane-Fox Pitt-Rivers Esq.'],
    ['JOSÉ ORTEGA Y GASSET', 'José Ortega y Gasset'],
    // documented: Roman numerals upper-cased
    ['henry smith iii', 'Henry Smith III'],
    ['henry smith ii', 'Henry Smith II'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeNames(input)).toBe(expected);
  });

  it.each([
    // The patronymic rule scopes to the rest of the word, up to the next word-initial Mc/Mac.
    ['mcdonald-mcrae', 'McDonald-McRae'],
    ['anne smith-mcdonald', 'Anne Smith-McDonald'],
    // Consequences of \b(Mc|Mac) the platform shares (no dictionary of real Mac- names).
    ['MACHADO', 'MacHado'],
    // Particles are whole words only; Java \b is Unicode-aware.
    ['delia delgado', 'Delia Delgado'],
    ['ÉMILE DE LA TOUR', 'Émile de la Tour'],
    // Surrounding blanks are trimmed, inner runs kept.
    ['  ada   lovelace ', 'Ada   Lovelace'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeNames(input)).toBe(expected);
  });

  it.each([[null], [''], ['   ']])('%j → null (StringUtils.trimToNull)', (input) => {
    expect(normalizeNames(input)).toBeNull();
  });
});

describe('capitalizeFully (WordUtils)', () => {
  it.each([
    ["o'NEIL-SMITH jr", new Set([' ', '-', "'"]), "O'Neil-Smith Jr"],
    ['-DONALDS', new Set([' ']), '-donalds'],
    ['ǆemal', new Set([' ']), 'ǅemal'],
    ['ßtraße', new Set([' ']), 'ßtraße'],
  ])('%j', (input, delimiters, expected) => {
    expect(capitalizeFully(input, delimiters)).toBe(expected);
  });
});
