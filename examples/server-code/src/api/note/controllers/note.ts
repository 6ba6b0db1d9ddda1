import { factories } from '@strapi/strapi';

interface Answer {
  data: Record<string, unknown>;
  meta: Record<string, unknown>;
}

export default factories.createCoreController('api::note.note', () => ({
  async findOne(ctx: { params: { id: string } }) {
    const answer = (await super.findOne(ctx)) as Answer | null;
    if (!answer) return answer;
    return { ...answer, meta: { ...answer.meta, typed: true as const } };
  },
}));
