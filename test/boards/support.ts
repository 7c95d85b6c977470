import { expect } from 'vitest';
import type { HttpResult, TestApp } from '../support/app.js';

/** The keys of a Board in the specification's order. */
export const BOARD_KEYS = [
  'id', 'name', 'kind', 'surface', 'description', 'createdByUserId', 'workspaceId', 'parentBoardId', 'visibility', 'createdAt', 'updatedAt', 'archivedAt', 'capabilities',
];

/** A 404 not_found, the same whether the id is missing or another workspace's (the message names what was asked). */
export function expectNotFound(res: HttpResult) {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(Object.keys(res.body.error)).toEqual(['code', 'message', 'requestId']);
  expect(res.body.error.code).toBe('not_found');
}

/** 200 and the body. */
export function ok(res: HttpResult) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The audit events of a workspace, oldest first. */
export const auditsOf = (t: TestApp, workspaceId: string) => t.db.prisma.auditEvent.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
