// The suite of the window run as a user the test creates (tst_adminhelper.cpp, whose header
// comment tells the whole story), shared by its source files.
#pragma once

#include "testuser.h"

#include <QObject>
#include <QTemporaryDir>
#include <QtGlobal>

#include <grp.h>
#include <unistd.h>

namespace adminhelpertest {

constexpr char kUser[] = "partwise-gui-test";

// This process as `uid`/`gid` with no supplementary groups, until the guard restores root.
inline bool becomeUser(uid_t uid, gid_t gid)
{
    return ::setgroups(0, nullptr) == 0 && ::setegid(gid) == 0 && ::seteuid(uid) == 0;
}

inline void becomeRootAgain()
{
    if (::seteuid(0) != 0 || ::setegid(0) != 0)
        qFatal("could not take root back");
    const gid_t rootGroup = 0;
    ::setgroups(1, &rootGroup);
}

} // namespace adminhelpertest

class TestAdminHelper : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void windowAsUserEditsAndRealignsThroughHelper();
    void userImageThroughOwnHelper();
    void watchSeesWindowRunAsRootOpenDisks();
    void demoDiskThroughWizardAsUser();       // tst_adminhelperdemo.cpp
    void resizeOffersOnlyMovingWithoutFuse(); // tst_adminhelperdemo.cpp

private:
    QTemporaryDir m_dir;
    pwtest::TestUser m_user;
};
