import { describe, expect, it } from 'vitest';
import { checkPermission } from '../../../src/bots/commands/check-permission';

const employee = { is_manager: false, groups: [{ id: 3, is_manager: false }] };
const teamLead = { is_manager: false, groups: [{ id: 3, is_manager: true }] };
const manager = { is_manager: true, groups: [{ id: 9, is_manager: false }] };

describe('checkPermission', () => {
  it('lets anyone run a command without permissions', () => {
    expect(checkPermission({ name: 'status' }, { groups: [] })).toEqual({ ok: true });
  });

  it('admits members of any listed group', () => {
    const command = { name: 'deploy', permissions: { groups: [3, 4] } };
    expect(checkPermission(command, employee)).toEqual({ ok: true });
    const refused = checkPermission(command, manager);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.reason).toMatch(/^Sorry, \/deploy is only available to members/);
      expect(refused.reason).not.toMatch(/\b3\b|\b4\b/);
    }
  });

  it('admits managers by the top-level flag or a manager membership', () => {
    const command = { name: 'rollback', permissions: { managers: true } };
    expect(checkPermission(command, manager)).toEqual({ ok: true });
    expect(checkPermission(command, teamLead)).toEqual({ ok: true });
    expect(checkPermission(command, employee)).toEqual({ ok: false, reason: 'Sorry, /rollback is only available to managers.' });
  });

  it('with both rules admits only managers within a listed group', () => {
    const command = { name: 'approve', permissions: { groups: [3], managers: true } };
    expect(checkPermission(command, teamLead)).toEqual({ ok: true });
    expect(checkPermission(command, employee).ok).toBe(false);
    expect(checkPermission(command, manager).ok).toBe(false);
    expect(checkPermission(command, { is_manager: true, groups: [{ id: 3 }] })).toEqual({ ok: true });
  });

  it('treats a user without group data as a member of no group', () => {
    expect(checkPermission({ name: 'deploy', permissions: { groups: [3] } }, {}).ok).toBe(false);
  });
});
