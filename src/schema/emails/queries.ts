import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { htmlMediaUrls } from '../shared/media-url.js';
import { listRef, type PageRequest } from '../shared/list.js';
import { findShopId } from '../shops/service.js';
import { emailFilter, emailsQueryArgs, shopEmailsArgs } from './args.js';
import { emailDetail, emailHtml, searchEmails, type EmailFilter, type EmailPage, type EmailSort } from './service.js';
import { EmailDetail, EmailSummary } from './types.js';

type EmailHtml = { emailId: number; html: string | null; htmlLength: number };

const EmailPageRef = listRef<unknown, EmailPage>('EmailPage', EmailSummary, { style: 'page', description: 'A page of email summaries.', searchable: true });

const EmailHtmlRef = builder.objectRef<EmailHtml>('EmailHtml').implement({
  description: 'The raw HTML as captured: data to store or sandbox, never rendered by this API.',
  fields: (t) => ({
    emailId: t.exposeInt('emailId'),
    html: t.exposeString('html', { nullable: true, description: 'Null when no HTML was captured.' }),
    htmlLength: t.exposeInt('htmlLength', { description: 'Characters of html; 0 without it.' }),
  }),
});

/** An email id from a path: a positive integer, or null (which names no email). */
function emailIdOf(value: string): number | null {
  const id = /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isInteger(id) && id >= 1 && id <= 2_147_483_647 ? id : null;
}

function emailPage(context: Context, info: GraphQLResolveInfo, filter: EmailFilter, sort: EmailSort, page: PageRequest): Promise<EmailPage> {
  return searchEmails(context, filter, sort, page, queryFromInfo({ context, info, path: ['data'] }));
}

const emailIdArg = z.string().min(1).max(64);

builder.queryFields((t) => ({
  emailsQuery: t.field({
    type: EmailPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: "Discover shops' marketing emails (POST /v1/emails/query). Sorts are discovery orders: no opens, clicks or revenue are known.",
    args: emailsQueryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = emailFilter(args);
      return emailPage(context, info, filter, sort, page);
    },
  }),
  shopEmails: t.field({
    type: EmailPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's emails (GET /v1/shops/{shopId}/emails), newest first unless sorted otherwise.",
    args: { shopId: t.arg.string({ required: true, validate: z.string().min(1).max(128) }), ...shopEmailsArgs() },
    resolve: async (_root, args, context, info) => {
      const shopId = await findShopId(context.prisma, args.shopId);
      if (!shopId) throw notFound(`Shop "${args.shopId}"`);
      const { filter, sort, page } = emailFilter(args, shopId);
      return emailPage(context, info, filter, sort, page);
    },
  }),
  email: t.prismaField({
    type: EmailDetail,
    nullable: true,
    authScopes: { workspace: true },
    description: 'One email with its body, language and shop (GET /v1/emails/{emailId}).',
    args: { emailId: t.arg.string({ required: true, validate: emailIdArg }) },
    resolve: async (query, _root, args, context) => {
      const id = emailIdOf(args.emailId);
      const email = id === null ? null : await emailDetail(context, id, query);
      if (!email) throw notFound(`Email "${args.emailId}"`);
      return email;
    },
  }),
  emailHtml: t.field({
    type: EmailHtmlRef,
    nullable: true,
    authScopes: { workspace: true },
    description: "An email's raw captured HTML (GET /v1/emails/{emailId}/html), served as data.",
    args: { emailId: t.arg.string({ required: true, validate: emailIdArg }) },
    resolve: async (_root, args, context) => {
      const id = emailIdOf(args.emailId);
      const email = id === null ? null : await emailHtml(context, id);
      if (!email) throw notFound(`Email "${args.emailId}"`);
      const html = email.html === null ? null : htmlMediaUrls(email.html, context.publicBaseUrl);
      return { emailId: email.id, html, htmlLength: html?.length ?? 0 };
    },
  }),
}));
