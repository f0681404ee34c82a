/** How a student's community score looks in `table` mode. */
import type { View } from '../../../output/view.js';

export const SCORE_VIEW: View = {
  noun: 'scores',
  columns: [
    { header: 'score', path: 'score' },
    { header: 'posts', path: 'posts' },
    { header: 'comments', path: 'comments' },
    { header: 'replies', path: 'replies' },
  ],
};
