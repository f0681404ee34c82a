/** The fixed catalogue of the sandbox school; ids and dates still come from the seed. */

export interface CourseDefinition {
  title: string;
  description: string;
  modules: readonly string[];
  /** How engaged its students are (0..1): spreads the course averages of the report. */
  engagement: number;
  /** A retired course: still listed (the API returns every course whatever its status). */
  retired?: boolean;
}

export interface ProductDefinition {
  title: string;
  description: string;
  /** Billing period in days; 0 for a lifetime purchase. */
  period: number;
  courses: readonly number[];
  /** Relative popularity when subscriptions are drawn. */
  weight: number;
  discontinued?: boolean;
}

export const COURSES: readonly CourseDefinition[] = [
  { title: 'Marketing Digital do Zero', description: 'Do planejamento às métricas: construa a presença digital do seu negócio.', modules: ['Fundamentos', 'Redes Sociais', 'E-mail Marketing', 'Métricas e Análise'], engagement: 0.55 },
  { title: 'Gestão de Tráfego Pago', description: 'Campanhas lucrativas no Meta Ads e no Google Ads.', modules: ['Meta Ads', 'Google Ads', 'Otimização de Campanhas'], engagement: 0.48 },
  { title: 'Excel Avançado para Negócios', description: 'Fórmulas, tabelas dinâmicas e dashboards que impressionam.', modules: ['Fórmulas e Funções', 'Tabelas Dinâmicas', 'Dashboards', 'Automação com Macros'], engagement: 0.66 },
  { title: 'Finanças Pessoais e Investimentos', description: 'Organize o orçamento e comece a investir com segurança.', modules: ['Organização do Orçamento', 'Renda Fixa', 'Ações e FIIs'], engagement: 0.44 },
  { title: 'Programação em Python', description: 'Aprenda a programar automatizando tarefas do dia a dia.', modules: ['Lógica de Programação', 'Estruturas de Dados', 'Automação de Tarefas', 'Projetos Práticos'], engagement: 0.58 },
  { title: 'Fotografia com Celular', description: 'Composição, luz natural e edição sem equipamento caro.', modules: ['Composição', 'Luz Natural', 'Edição no Lightroom'], engagement: 0.71 },
  { title: 'Confeitaria Profissional', description: 'Bolos, recheios e precificação para vender com lucro.', modules: ['Massas', 'Recheios e Coberturas', 'Precificação'], engagement: 0.62 },
  { title: 'Inglês para Viagens', description: 'Converse com confiança no aeroporto, no hotel e no restaurante.', modules: ['Aeroporto e Hotel', 'Restaurantes', 'Situações de Emergência'], engagement: 0.39 },
  { title: 'Redação Nota Mil para o ENEM', description: 'Estrutura, repertório e proposta de intervenção.', modules: ['Estrutura do Texto', 'Repertório Sociocultural', 'Proposta de Intervenção'], engagement: 0.75 },
  { title: 'Violão Popular para Iniciantes', description: 'Acordes, ritmos brasileiros e repertório para tocar em roda.', modules: ['Acordes Básicos', 'Ritmos Brasileiros', 'Repertório'], engagement: 0.42 },
  { title: 'Yoga e Meditação', description: 'Respiração, posturas e meditação guiada para o dia a dia.', modules: ['Respiração', 'Posturas', 'Meditação Guiada'], engagement: 0.52 },
  { title: 'Oratória e Comunicação', description: 'Fale em público com clareza (turma encerrada).', modules: ['Voz e Dicção', 'Linguagem Corporal', 'Apresentações'], engagement: 0.6, retired: true },
];

export const PRODUCTS: readonly ProductDefinition[] = [
  { title: 'Academia do Marketing Digital', description: 'Assinatura anual com os cursos de marketing e tráfego.', period: 365, courses: [0, 1], weight: 14 },
  { title: 'Excel Avançado — Acesso Vitalício', description: 'Compra única, acesso para sempre.', period: 0, courses: [2], weight: 12 },
  { title: 'Clube de Finanças', description: 'Assinatura mensal de finanças e planilhas.', period: 30, courses: [3, 2], weight: 10 },
  { title: 'Python Pro', description: 'Programação em Python, acesso vitalício.', period: 0, courses: [4], weight: 8 },
  { title: 'Combo Criativo: Fotografia + Confeitaria', description: 'Dois cursos práticos em um só pacote.', period: 0, courses: [5, 6], weight: 7 },
  { title: 'Inglês Sem Fronteiras', description: 'Assinatura mensal do curso de inglês.', period: 30, courses: [7], weight: 9 },
  { title: 'Maratona ENEM 2025', description: 'Redação e oratória até a prova.', period: 365, courses: [8, 11], weight: 6, discontinued: true },
  { title: 'Bem-Estar e Música', description: 'Yoga, meditação e violão.', period: 30, courses: [10, 9], weight: 5 },
  { title: 'Assinatura Premium — Todos os Cursos', description: 'Os cursos mais procurados da escola em uma assinatura.', period: 365, courses: [0, 2, 4, 8], weight: 4 },
];

/** Generic lesson titles; a module draws a few of them in order. */
export const LESSON_TITLES: readonly string[] = [
  'Boas-vindas',
  'Visão geral do módulo',
  'Conceitos essenciais',
  'Passo a passo',
  'Estudo de caso',
  'Erros comuns',
  'Exercícios práticos',
  'Materiais complementares',
  'Revisão e próximos passos',
];

export const SCHOOL_DOMAIN = 'escolaexemplo.com.br';
