// The words pseudonyms are drawn from (invented for this purpose; any list of plausible names
// would do). Grouped at load time by length class (up to 4, 5 to 7, 8 and more letters), so that
// a pseudonym has about the length of what it replaces.

export const GIVEN_NAMES: readonly string[] = [
  'Ada', 'Bo', 'Eli', 'Ida', 'Kai', 'Leo', 'Mia', 'Noa', 'Ole', 'Ria', 'Tom', 'Uma', 'Ivo', 'Eva', 'Jon', 'Max', 'Lina', 'Omar', 'Rosa', 'Yuri',
  'Amara', 'Bruno', 'Celia', 'Dario', 'Elena', 'Felix', 'Greta', 'Hanna', 'Ingrid', 'Jonas', 'Kalani', 'Lucas', 'Marta', 'Nadia', 'Oskar', 'Priya',
  'Rafael', 'Sanna', 'Tobias', 'Ulrike', 'Vera', 'Wanda', 'Xavier', 'Yasmin', 'Zeynep', 'Anselm', 'Beatriz', 'Cosimo', 'Dagny', 'Emilia',
  'Augustin', 'Benedikt', 'Cornelia', 'Dorothea', 'Evangeline', 'Florentin', 'Gwendolyn', 'Hieronymus', 'Isabella', 'Josephine', 'Leopoldine',
  'Maximilian', 'Nathaniel', 'Octavia', 'Penelope', 'Sebastian', 'Valentina', 'Wilhelmina',
];

export const FAMILY_NAMES: readonly string[] = [
  'Berg', 'Cruz', 'Diaz', 'Holm', 'Ito', 'Kahn', 'Lund', 'Mora', 'Nagy', 'Roth', 'Sato', 'Vega', 'Wong', 'Yang', 'Abe', 'Bell',
  'Acosta', 'Barros', 'Castro', 'Dahl', 'Eriksen', 'Fischer', 'Garza', 'Haddad', 'Ibarra', 'Jensen', 'Kowalski', 'Lindqvist', 'Moreau',
  'Novak', 'Okafor', 'Pereira', 'Quinn', 'Rinaldi', 'Silva', 'Tanaka', 'Ueda', 'Varga', 'Weber', 'Yilmaz', 'Zeller', 'Horvat',
  'Abernathy', 'Bergstrom', 'Castellano', 'Delacroix', 'Fitzgerald', 'Gallagher', 'Hargreaves', 'Kristiansen', 'Lindenberg',
  'Montgomery', 'Nakamura', 'Oyelaran', 'Pemberton', 'Rasmussen', 'Santangelo', 'Thorvaldsen', 'Vanderbilt', 'Whitfield',
];

export const TEXT_WORDS: readonly string[] = [
  'a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'via', 'new', 'old', 'key', 'way', 'team', 'plan', 'note', 'item', 'task',
  'river', 'stone', 'field', 'orbit', 'amber', 'cedar', 'harbor', 'meadow', 'signal', 'lantern', 'quarry', 'willow', 'copper', 'granite', 'market',
  'framework', 'lighthouse', 'threshold', 'provision', 'catalogue', 'overnight', 'waterfall', 'evergreen', 'background', 'particular',
];
