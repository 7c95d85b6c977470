-- Issue #35: the claim of the process running a sync run, so a process whose run was taken over writes nothing more to it.

-- AlterTable
ALTER TABLE "sync_runs" ADD COLUMN     "owner" UUID;
