/** Name pools for seeded students: common Brazilian names, accents included on purpose. */

export const FEMALE_NAMES: readonly string[] = [
  'Maria', 'Ana', 'Francisca', 'Antônia', 'Adriana', 'Juliana', 'Márcia', 'Fernanda', 'Patrícia', 'Aline',
  'Conceição', 'Ângela', 'Lúcia', 'Cláudia', 'Fátima', 'Letícia', 'Bárbara', 'Débora', 'Mônica', 'Vitória',
  'Inês', 'Luíza', 'Helena', 'Beatriz', 'Sônia', 'Tânia', 'Jéssica', 'Natália', 'Camila', 'Gisele',
];

export const MALE_NAMES: readonly string[] = [
  'João', 'José', 'Antônio', 'Francisco', 'Carlos', 'Paulo', 'Pedro', 'Lucas', 'Luiz', 'Marcos',
  'Luís', 'Gabriel', 'Rafael', 'Daniel', 'Marcelo', 'Bruno', 'Eduardo', 'Felipe', 'Raimundo', 'Rodrigo',
  'Sérgio', 'Fábio', 'Márcio', 'Vinícius', 'Otávio', 'Caio', 'Júlio', 'André', 'Thiago', 'Henrique',
];

export const LAST_NAMES: readonly string[] = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes',
  'Ribeiro', 'Carvalho', 'Araújo', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa', 'Rocha',
  'Dias', 'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas', 'Cardoso',
  'Gonçalves', 'Conceição', 'Magalhães', 'Assunção', 'Brandão', 'Falcão', 'Simões', 'Guimarães', 'Estêvão', 'Mourão',
  'da Silva', 'dos Santos', 'de Souza', 'de Araújo', 'da Conceição',
];

export const EMAIL_DOMAINS: readonly string[] = [
  'gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.br', 'uol.com.br', 'bol.com.br', 'terra.com.br', 'example.com.br',
];

export const EMAIL_TAGS: readonly string[] = ['cursos', 'escola', 'estudos', 'compras'];

/** Area codes (DDD) of the larger Brazilian cities. */
export const AREA_CODES: readonly number[] = [11, 21, 31, 41, 51, 61, 71, 81, 85, 92, 48, 19, 27, 62];
