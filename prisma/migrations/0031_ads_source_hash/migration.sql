-- AlterTable
ALTER TABLE "ads" ADD COLUMN     "sourceHash" TEXT;
